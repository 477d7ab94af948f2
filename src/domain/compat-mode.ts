/**
 * How a merchant is served besides the interface itself: `none` (the interface alone) or `xpay`
 * (also the way XPay Labs' node and Java SDKs expect: `X-API-TOKEN` requests signed with XPay's
 * `k=v` rule, HTTP 200 envelopes, XPay-shaped and XPay-signed webhooks; docs/xpay-migration.md).
 */
export const COMPAT_MODES = ['none', 'xpay'] as const;
export type CompatMode = (typeof COMPAT_MODES)[number];

/** Whether `value` names a compatibility mode. */
export function isCompatMode(value: unknown): value is CompatMode {
  return (COMPAT_MODES as readonly unknown[]).includes(value);
}
