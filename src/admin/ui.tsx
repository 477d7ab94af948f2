import type { Child } from 'hono/jsx';
import { Csrf } from './layout.tsx';
import { fill, short, utc, type View } from './view.ts';

/** A status as a coloured badge (colour from `data-s`, text from the strings). */
export function Badge({ s, label }: { s: string; label?: string }) {
  return (
    <span class="badge" data-s={s}>
      {label ?? s}
    </span>
  );
}

/** A time in UTC inside a <time> element. */
export function Time({ ms }: { ms: number | null | undefined }) {
  if (ms === null || ms === undefined) return <span>—</span>;
  return <time datetime={new Date(ms).toISOString()}>{utc(ms)}</time>;
}

/** A hash or address: shortened, full value in the title, linked to the explorer when there is one. */
export function Hash({ value, href }: { value: string | null | undefined; href?: string | null }) {
  if (!value) return <span>—</span>;
  const text = <span class="mono">{short(value, 10)}</span>;
  return href ? (
    <a href={href} title={value} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  ) : (
    <span title={value}>{text}</span>
  );
}

/** A table cell with the column label repeated for the phone layout (`table.stack`). */
export function Td(props: { label: string; children?: Child; num?: boolean }) {
  return (
    <td data-label={props.label} class={props.num ? 'num' : undefined}>
      <div>{props.children}</div>
    </td>
  );
}

/** A note about a part of the page that is not available yet: plain text, no fake data, no dead button. */
export function NotYet({ children }: { children: Child }) {
  return <p class="notyet">{children}</p>;
}

/** A one-button POST form carrying the CSRF token (shown to admins only by the pages). */
export function ActionButton(props: {
  v: View;
  action: string;
  label: string;
  fields?: Record<string, string>;
  danger?: boolean;
  confirm?: string;
}) {
  return (
    <form method="post" action={props.action} class="inline">
      <Csrf v={props.v} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      {props.confirm ? (
        <label class="check">
          <input type="checkbox" name="confirm" value="yes" required />
          {props.confirm}
        </label>
      ) : null}
      <button type="submit" class={props.danger ? 'danger' : 'quiet'}>
        {props.label}
      </button>
    </form>
  );
}

/** A select of fixed options with an "any" first entry, keeping the chosen value. */
export function Select(props: {
  name: string;
  label: string;
  value: string | undefined;
  anyLabel: string;
  options: { value: string; label: string }[];
}) {
  const id = `f-${props.name}`;
  return (
    <div>
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name}>
        <option value="">{props.anyLabel}</option>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The success line after an action (`?done=key`), when the key is one the page knows. */
export function Done({ v, done }: { v: View; done: string | undefined }) {
  const text = done ? (v.t.done as Record<string, string>)[done] : undefined;
  return text ? (
    <p class="notice ok" role="status">
      {text}
    </p>
  ) : null;
}

/**
 * Paging of a newest-first list: how many are shown, a link back to the newest page when this is
 * not it, and "Older" (or, when the page stopped early on a rare filter, "Look further back") with
 * the next page's cursor. `path` is the list's address and `keep` its filters.
 */
export function Pager(props: {
  v: View;
  path: string;
  keep: URLSearchParams;
  shown: number;
  after: string | undefined;
  next: string | null;
  partial: boolean;
}) {
  const { v, keep } = props;
  const first = `${props.path}?${keep.toString()}`;
  const older = props.next
    ? `${props.path}?${keep.toString()}${keep.size ? '&' : ''}after=${encodeURIComponent(props.next)}`
    : null;
  return (
    <nav class="pager">
      <span>{fill(v.t.showing, { n: props.shown })}</span>
      {props.after ? <a href={first}>{v.t.first}</a> : null}
      {older ? (
        <a href={older} rel="next" class="button quiet">
          {props.partial ? v.t.lookFurther : v.t.older} →
        </a>
      ) : null}
    </nav>
  );
}

/** The field of a 6-digit TOTP code, as authenticator apps and phone keyboards expect it. */
export function CodeField(props: { id: string; label: string }) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name="code"
        inputmode="numeric"
        autocomplete="one-time-code"
        pattern="[0-9 ]{6,7}"
        maxlength={7}
        required
      />
    </>
  );
}
