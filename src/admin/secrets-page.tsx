import { Layout } from './layout.tsx';
import type { View } from './view.ts';

/** The page that shows freshly made secrets once (answered to the POST itself: never in a URL). */
export function SecretsPage(props: { v: View; title: string; once: string; secrets: [string, string][] }) {
  const { v } = props;
  return (
    <Layout v={v} title={props.title}>
      <h1>{props.title}</h1>
      <p class="notice warn" role="alert">
        {props.once}
      </p>
      <section class="card secret">
        <dl class="facts" id="secrets">
          {props.secrets.map(([label, value]) => (
            <>
              <dt>{label}</dt>
              <dd class="mono">{value}</dd>
            </>
          ))}
        </dl>
      </section>
      <p>
        <a href={`${v.base}/merchants`}>{v.t.merchants.back}</a>
      </p>
    </Layout>
  );
}
