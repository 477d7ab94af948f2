import { raw } from 'hono/html';
import { SIGNING } from './document.ts';
import type { JsonSchema } from './json-schema.ts';
import type { Operation } from './operations.ts';

/**
 * The API reference page (`GET /docs`): the OpenAPI document as HTML, server-rendered, no external
 * script, font or style. Per endpoint: what it does, who may call it, its fields, its answer, every
 * refusal with its message, and an example in curl and in TypeScript (@kassa/client) to copy.
 */

const CLIENT_CALL: Record<string, (op: Operation) => string> = {
  createCollection: (op) => `await kassa.createCollection(${ts(op.example)});`,
  createPayout: (op) => `await kassa.createPayout(${ts(op.example)});`,
  getBalance: (op) => `await kassa.getBalance(${ts(op.example)});`,
  getOrder: () => `await kassa.getOrder('A-1001');`,
  getCheckout: () => `await kassa.getCheckout('A-1001');`,
  getOrderStatus: () => `await kassa.getOrderStatus('A-1001'); // 'INIT' | 'PENDING' | …`,
  supportSymbols: () => `await kassa.supportSymbols({ chain: 'TRON' });`,
};

function ts(value: unknown): string {
  return JSON.stringify(value ?? {})
    .replace(/"([A-Za-z_][A-Za-z0-9_]*)":/g, '$1: ')
    .replace(/"/g, "'")
    .replace(/,/g, ', ');
}

const HMAC = `openssl dgst -sha256 -hmac "$TOKEN" -hex | sed 's/^.*= //'`;

function curlExample(op: Operation, base: string): string {
  if (op.access === 'envelope') {
    return [
      'TOKEN=…   # the merchant token',
      `DATA='${JSON.stringify(op.example ?? {})}'`,
      `SIGN=$(printf '%s' "$DATA" | ${HMAC})`,
      `curl -s ${base}${op.path} -H 'content-type: application/json' \\`,
      `  -d "{\\"sign\\":\\"$SIGN\\",\\"timestamp\\":$(date +%s),\\"nonce\\":\\"$(uuidgen)\\",\\"data\\":$DATA}"`,
    ].join('\n');
  }
  if (op.access === 'orderSign') {
    const path = op.path.includes('{orderId}')
      ? op.path.replace('{orderId}', 'A-1001') + '?'
      : `${op.path}?orderId=A-1001&`;
    return [`SIGN=$(printf '%s' 'A-1001' | ${HMAC})`, `curl -s "${base}${path}sign=$SIGN"`].join('\n');
  }
  if (op.access === 'metricsToken')
    return `curl -s ${base}${op.path} -H "authorization: Bearer $KASSA_METRICS_TOKEN"`;
  const query = op.operationId === 'supportSymbols' ? '?chain=TRON' : '';
  return `curl -s ${base}${op.path}${query}`;
}

function tsExample(op: Operation, base: string): string | null {
  const call = CLIENT_CALL[op.operationId];
  if (!call) return null;
  return [
    "import { KassaClient } from '@kassa/client';",
    '',
    `const kassa = new KassaClient({ baseUrl: '${base}', token: process.env.KASSA_TOKEN! });`,
    call(op),
  ].join('\n');
}

function Fields(props: { schema: JsonSchema | undefined; components: Record<string, JsonSchema> }) {
  const resolve = (s: JsonSchema | undefined): JsonSchema | undefined => {
    const ref = s?.$ref;
    return typeof ref === 'string' ? props.components[ref.split('/').pop() as string] : s;
  };
  const schema = resolve(props.schema);
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema?.required ?? []) as string[]);
  if (Object.keys(properties).length === 0) return null;
  return (
    <table>
      <tr>
        <th>field</th>
        <th>type</th>
        <th>meaning</th>
      </tr>
      {Object.entries(properties).map(([name, p]) => {
        const shown = resolve(p) ?? p;
        const type = shown.enum
          ? (shown.enum as string[]).join(' | ')
          : Array.isArray(shown.type)
            ? (shown.type as string[]).join(' | ')
            : String(shown.type ?? (p.anyOf ? 'see schema' : 'object'));
        return (
          <tr>
            <td>
              <code>{name}</code>
              {required.has(name) ? ' *' : ''}
            </td>
            <td>{type}</td>
            <td>{String(p.description ?? shown.description ?? '')}</td>
          </tr>
        );
      })}
    </table>
  );
}

function Code(props: { text: string }) {
  return (
    <div class="code">
      <button type="button" class="copy" hidden>
        Copy
      </button>
      <pre>
        <code>{props.text}</code>
      </pre>
    </div>
  );
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2433}main{max-width:60rem;margin:auto;padding:1rem}
h1{font-size:1.6rem}h2{border-top:1px solid #dde;padding-top:1.2rem}code{font:13px ui-monospace,monospace}
.method{display:inline-block;min-width:3.5rem;font-weight:700}.post{color:#0a5}.get{color:#06c}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #dde;padding:.3rem .5rem;text-align:left;vertical-align:top}
.code{position:relative}.code pre{background:#f4f5f8;padding:.8rem;overflow-x:auto;white-space:pre}
.copy{position:absolute;right:.4rem;top:.4rem}nav a{margin-right:.8rem}@media(max-width:40rem){td,th{font-size:13px}}`;

const SCRIPT = `for(const b of document.querySelectorAll('.copy')){b.hidden=false;b.addEventListener('click',()=>{navigator.clipboard.writeText(b.nextElementSibling.textContent).then(()=>{b.textContent='Copied';setTimeout(()=>{b.textContent='Copy'},1500)})})}`;

/** The reference page as an HTML document. */
export function renderReferencePage(input: {
  operations: Operation[];
  document: {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, JsonSchema> };
  };
  baseUrl: string;
  nonce: string;
}): string {
  const { operations, document, baseUrl, nonce } = input;
  const components = document.components.schemas;
  const opSchema = (op: Operation) =>
    document.paths[op.path]?.[op.method] as
      | {
          requestBody?: { content: Record<string, { schema: JsonSchema }> };
          responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
        }
      | undefined;
  const page = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Kassa API reference</title>
        <style nonce={nonce}>{raw(STYLE)}</style>
      </head>
      <body>
        <main>
          <h1>Kassa API reference</h1>
          <p>
            Every answer is the envelope <code>{'{code, msg, data}'}</code>; <code>code</code> equals the HTTP
            status and <code>msg</code> is <code>success</code> or the refusal, word for word. Amounts are
            decimal strings. The machine-readable description is <a href="openapi.json">openapi.json</a>{' '}
            (OpenAPI 3.1). Server: <code>{baseUrl}</code>.
          </p>
          <nav>
            {operations.map((op) => (
              <a href={`#${op.operationId}`}>{op.operationId}</a>
            ))}
          </nav>
          <h2 id="signing">Signing</h2>
          <p>{SIGNING.envelope}</p>
          <p>{SIGNING.orderSign}</p>
          <h2 id="webhooks">Webhooks</h2>
          <p>{SIGNING.webhooks}</p>
          <Fields schema={components.WebhookEvent} components={components} />
          {operations.map((op) => {
            const o = opSchema(op);
            const request = o?.requestBody?.content['application/json']?.schema;
            const dataSchema = request
              ? ((request.properties as Record<string, JsonSchema>)?.data ?? undefined)
              : undefined;
            const answer = o?.responses['200']?.content?.['application/json']?.schema;
            const answerData = answer
              ? ((answer.properties as Record<string, JsonSchema> | undefined)?.data ?? answer)
              : undefined;
            const itemSchema = answerData?.type === 'array' ? (answerData.items as JsonSchema) : answerData;
            const example = tsExample(op, baseUrl);
            return (
              <section id={op.operationId}>
                <h2>
                  <span class={`method ${op.method}`}>{op.method.toUpperCase()}</span> <code>{op.path}</code>
                </h2>
                <p>
                  <strong>{op.summary}.</strong> {op.description}
                </p>
                <p>
                  Access:{' '}
                  {op.access === 'envelope'
                    ? 'a signed envelope (see Signing).'
                    : op.access === 'orderSign'
                      ? 'a sign over the orderId (see Signing).'
                      : op.access === 'metricsToken'
                        ? 'a bearer token (KASSA_METRICS_TOKEN).'
                        : 'anyone.'}
                </p>
                {op.parameters ? (
                  <table>
                    <tr>
                      <th>parameter</th>
                      <th>in</th>
                      <th>meaning</th>
                    </tr>
                    {op.parameters.map((p) => (
                      <tr>
                        <td>
                          <code>{p.name}</code>
                          {p.required ? ' *' : ''}
                        </td>
                        <td>{p.in}</td>
                        <td>{p.description}</td>
                      </tr>
                    ))}
                  </table>
                ) : null}
                {dataSchema ? (
                  <>
                    <h3>data</h3>
                    <Fields schema={dataSchema} components={components} />
                  </>
                ) : null}
                {itemSchema ? (
                  <>
                    <h3>answer{answerData?.type === 'array' ? ' (a list of)' : ''}</h3>
                    <Fields schema={itemSchema} components={components} />
                  </>
                ) : null}
                {Object.keys(op.refusals).length > 0 ? (
                  <>
                    <h3>refusals</h3>
                    <table>
                      {Object.entries(op.refusals).map(([status, messages]) => (
                        <tr>
                          <td>{status}</td>
                          <td>
                            {messages.map((m) => (
                              <div>
                                <code>{m}</code>
                              </div>
                            ))}
                          </td>
                        </tr>
                      ))}
                    </table>
                  </>
                ) : null}
                <h3>curl</h3>
                <Code text={curlExample(op, baseUrl)} />
                {example ? (
                  <>
                    <h3>TypeScript</h3>
                    <Code text={example} />
                  </>
                ) : null}
              </section>
            );
          })}
        </main>
        <script nonce={nonce}>{raw(SCRIPT)}</script>
      </body>
    </html>
  );
  return `<!DOCTYPE html>${page.toString()}`;
}
