import { z } from 'zod';
import type { Operation, Parameter } from './operation.ts';
import { xpayMerchantAssets, xpayReply } from './resources.ts';

/** The query parameters every XPay-style signed GET carries. */
const XPAY_SIGNED_QUERY: Parameter[] = [
  { name: 'timestamp', in: 'query', required: true, description: 'Unix seconds; within ±300 s.' },
  { name: 'nonce', in: 'query', required: true, description: 'Accepted once per merchant.' },
  {
    name: 'sign',
    in: 'query',
    required: true,
    description:
      'Lowercase hex HMAC-SHA256, keyed by the merchant’s webhook secret, of the other parameters as `k=v` sorted by name and joined by `&` (XPay’s rule, as its Java SDK signs).',
  },
];

/**
 * The GETs only XPay has, answered to merchants in XPay mode (the XPay-style forms of the other
 * endpoints share their paths with the interface's and are told apart by `X-API-TOKEN`, which
 * OpenAPI cannot express as a second operation: see docs/xpay-migration.md).
 */
export function xpayOnlyOperations(): Operation[] {
  const refusedXpayWay =
    ' Answered XPay’s way: HTTP 200 whatever happens, `code` 200 on success and 500 on a refusal (a missing or unknown `X-API-TOKEN`, a bad signature, a replayed nonce, …) with XPay’s text in `msg`.';
  return [
    {
      method: 'get',
      path: '/v1/merchant/getBalance',
      operationId: 'xpayGetBalance',
      tag: 'XPay compatibility',
      summary: 'A balance, XPay’s way',
      description:
        'XPay’s MerchantAssetsVo: the merchant’s balance of one symbol over every chain, from its ledger. Only for merchants in XPay mode; the interface’s form is the POST.' +
        refusedXpayWay,
      access: 'xpayToken',
      parameters: [
        { name: 'symbol', in: 'query', required: true, description: 'The symbol (any case).' },
        {
          name: 'chain',
          in: 'query',
          required: false,
          description: 'Only this chain (a Kassa addition).',
        },
        ...XPAY_SIGNED_QUERY,
      ],
      answer: { schema: xpayReply(xpayMerchantAssets), envelope: false },
      refusals: {},
    },
    {
      method: 'get',
      path: '/v1/merchant/getCryptoAddress',
      operationId: 'xpayGetCryptoAddress',
      tag: 'XPay compatibility',
      summary: 'A permanent address per user, XPay’s way: not offered',
      description:
        'Kassa gives every order its own deposit address and has no permanent per-user address, so once the request is authenticated the answer is XPay’s own refusal for such merchants, `Address acquisition is not supported.`' +
        refusedXpayWay,
      access: 'xpayToken',
      parameters: [
        { name: 'chain', in: 'query', required: false, description: 'As XPay’s SDKs send it.' },
        { name: 'symbol', in: 'query', required: false, description: 'As XPay’s SDKs send it.' },
        { name: 'uid', in: 'query', required: false, description: 'As XPay’s SDKs send it.' },
        ...XPAY_SIGNED_QUERY,
      ],
      answer: { schema: xpayReply(z.null()), envelope: false },
      refusals: {},
    },
  ];
}
