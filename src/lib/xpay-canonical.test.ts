import { describe, expect, it } from 'vitest';
import vectors from '../../test/fixtures/xpay/vectors.json' with { type: 'json' };
import { type ExactJson, type ExactObject, parseExactJson } from './exact-json.ts';
import { xpayJavaCanonical, xpayNodeCanonical } from './xpay-canonical.ts';

/** The Java rule of a POST body: its top-level members. */
function javaOfBody(bodyText: string): string {
  return xpayJavaCanonical(parseExactJson(bodyText) as ExactObject);
}

/** The node SDK rule of a POST body: data, nonce, timestamp (+ notifyType for webhooks). */
function nodeOfBody(bodyText: string, webhook = false): string | null {
  const b = parseExactJson(bodyText) as ExactObject;
  return xpayNodeCanonical({
    data: b.data,
    nonce: b.nonce,
    timestamp: b.timestamp,
    ...(webhook ? { notifyType: b.notifyType } : {}),
  });
}

/** A query string as the XPay server maps it: one string per key, an array when repeated. */
function javaOfQuery(query: string): string {
  const params: Record<string, ExactJson> = {};
  for (const [k, v] of new URLSearchParams(query)) {
    const prev = params[k];
    params[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev as string, v];
  }
  return xpayJavaCanonical(params);
}

describe('XPay canonical text: the captured and computed vectors', () => {
  it('renders every request body the way the node SDK signed it, and the way the XPay server reads it', () => {
    const posts = vectors.requestVectors.filter((v) => v.method === 'POST');
    expect(posts).toHaveLength(15);
    for (const v of posts) {
      // req-7: the SDK signed `uid=undefined` for a key JSON.stringify dropped from the body;
      // nothing in the body says so, so no reading of the body reproduces it.
      if (v.id === 'req-7') expect(nodeOfBody(v.bodyText), v.id).not.toBe(v.nodeSdkCanonical);
      else expect(nodeOfBody(v.bodyText), v.id).toBe(v.nodeSdkCanonical);
      expect(javaOfBody(v.bodyText), v.id).toBe(v.xpayServerCanonicalOfBody);
    }
  });

  it('renders every Java-rule vector as the server would, and the node rule where the SDK has one', () => {
    expect(vectors.javaRuleVectors).toHaveLength(18);
    for (const v of vectors.javaRuleVectors) {
      if (v.kind === 'GET query') {
        expect(javaOfQuery(v.query as string), v.id).toBe(v.javaCanonical);
        continue;
      }
      const body = v.bodyText as string;
      expect(javaOfBody(body), v.id).toBe(v.javaCanonical);
      if (v.nodeRuleSign === null) expect(nodeOfBody(body), v.id).toBeNull();
      else expect(nodeOfBody(body), v.id).toBe(v.nodeRuleCanonical);
    }
  });

  it('reproduces the cross-check of xpay-behaviour.md §1.3 (made under Jackson 2.18)', () => {
    for (const r of vectors.javaRuleCrossCheck.results) {
      const text =
        'bodyText' in r
          ? javaOfBody(r.bodyText as string)
          : javaOfQuery('nonce=n1&symbol=USDT&timestamp=1717000000');
      expect(text).toBe(r.canonical);
    }
  });

  it('renders every webhook body under both rules as the vectors say', () => {
    expect(vectors.webhookVectors).toHaveLength(14);
    for (const v of vectors.webhookVectors) {
      expect(javaOfBody(v.bodyText), v.id).toBe(v.xpayJavaRuleCanonical);
      expect(nodeOfBody(v.bodyText, true), v.id).toBe(v.nodeSdkCanonical);
    }
  });

  it('gives the node rule nothing for data the SDK would throw on', () => {
    expect(
      xpayNodeCanonical({
        data: parseExactJson('{"tags":["a",null]}'),
        nonce: 'n',
        timestamp: parseExactJson('1'),
      }),
    ).toBeNull();
    expect(xpayNodeCanonical({ data: 'text', nonce: 'n', timestamp: parseExactJson('1') })).toBeNull();
  });
});
