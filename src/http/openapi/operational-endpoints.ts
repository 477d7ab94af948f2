import type { Operation } from './operation.ts';
import { health, readiness } from './resources.ts';

/**
 * The endpoints of the public listener that are not the merchant API nor the checkout page:
 * liveness, readiness, this document and its reference page, and `/metrics` when a metrics token
 * is configured.
 */
export function operationalEndpoints(options: { metrics: boolean }): Operation[] {
  const ops: Operation[] = [
    {
      method: 'get',
      path: '/healthz',
      operationId: 'health',
      tag: 'Operations',
      summary: 'Liveness',
      description: 'Answers while the process serves HTTP; touches nothing else.',
      access: 'public',
      answer: { schema: health, envelope: false },
      refusals: {},
    },
    {
      method: 'get',
      path: '/readyz',
      operationId: 'readiness',
      tag: 'Operations',
      summary: 'Readiness',
      description:
        '200 when the database takes a write and every enabled chain’s scanner is within its lag budget, 503 `{"status":"not_ready"}` otherwise. The detail is on the admin listener.',
      access: 'public',
      answer: { schema: readiness, envelope: false },
      refusals: {},
    },
    {
      method: 'get',
      path: '/openapi.json',
      operationId: 'openApi',
      tag: 'Operations',
      summary: 'This document',
      description: 'The OpenAPI 3.1 description of the public listener.',
      access: 'public',
      answer: { mediaType: 'application/json', description: 'The OpenAPI document.' },
      refusals: {},
    },
    {
      method: 'get',
      path: '/docs',
      operationId: 'reference',
      tag: 'Operations',
      summary: 'The API reference page',
      description: 'This document as an HTML page, with signing explained and an example per endpoint.',
      access: 'public',
      answer: { mediaType: 'text/html', description: 'The reference page.' },
      refusals: {},
    },
  ];
  if (options.metrics) {
    ops.push({
      method: 'get',
      path: '/metrics',
      operationId: 'metrics',
      tag: 'Operations',
      summary: 'Prometheus metrics',
      description:
        'Present on the public listener only because KASSA_METRICS_TOKEN is set; the admin listener serves it without a token.',
      access: 'metricsToken',
      answer: { mediaType: 'text/plain', description: 'Prometheus text format 0.0.4.' },
      refusals: { 401: ['Unauthorized'] },
    });
  }
  return ops;
}
