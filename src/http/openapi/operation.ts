import type { z } from 'zod';

/** Who may call an operation: a signed envelope, a sign over the orderId, or anyone. */
export type Access = 'envelope' | 'orderSign' | 'public' | 'metricsToken';

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
}

/** One endpoint of the public listener, as the OpenAPI document and the reference page show it. */
export interface Operation {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  tag: 'Orders' | 'Merchant' | 'Symbols' | 'Checkout' | 'Operations';
  summary: string;
  description: string;
  access: Access;
  /** The `data` of a signed POST. */
  data?: z.ZodType;
  /** An example of `data`, for the reference page. */
  example?: Record<string, unknown>;
  parameters?: Parameter[];
  /** The success answer: a schema inside R<T> (envelope), a bare JSON schema, or another media type. */
  answer: { schema: z.ZodType; envelope: boolean } | { mediaType: string; description: string };
  /** Refusals: status → the exact messages. */
  refusals: Record<number, string[]>;
}
