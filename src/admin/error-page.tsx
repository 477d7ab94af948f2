import { Layout, toHtml } from './layout.tsx';
import type { View } from './view.ts';

/** The page of a refused or failed request: what happened, and the way back. No data, no script. */
export function renderErrorPage(v: View, message: string): string {
  return toHtml(
    <Layout v={v} title={v.t.errors.title}>
      <h1>{v.t.errors.title}</h1>
      <p class="notice bad" role="alert">
        {message}
      </p>
      <p>
        <a href={v.session ? v.base || '/' : `${v.base}/login`}>
          {v.session ? v.t.errors.back : v.t.signIn.title}
        </a>
      </p>
    </Layout>,
  );
}
