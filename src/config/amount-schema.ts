import { z } from 'zod';

/** A decimal amount as text, such as "5000" or "0.25". */
export const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "0.00"');

/** Decimal amounts per token symbol, e.g. `{"USDT": "5000"}`. */
export const symbolAmounts = z.record(z.string(), decimalString).default({});
