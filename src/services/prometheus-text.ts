/** One sample of a metric family: its labels and value. */
export interface Sample {
  labels?: Record<string, string>;
  value: number;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

/**
 * Builds the Prometheus text exposition format (version 0.0.4): per family a `# HELP` and a
 * `# TYPE` line, then one line per sample with escaped label values. Names must match
 * [a-zA-Z_:][a-zA-Z0-9_:]*; a bad name throws, since it is a programming error.
 */
export class PrometheusText {
  private readonly lines: string[] = [];
  private readonly names = new Set<string>();

  /** Adds a family; counters' names end in `_total`. Throws on a bad or repeated name. */
  family(name: string, type: 'gauge' | 'counter', help: string, samples: Sample[]): this {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name) || this.names.has(name))
      throw new Error(`bad or repeated metric name ${name}`);
    this.names.add(name);
    this.lines.push(`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`);
    this.lines.push(`# TYPE ${name} ${type}`);
    for (const s of samples) {
      const labels = Object.entries(s.labels ?? {});
      const text = labels.length ? `{${labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}` : '';
      this.lines.push(`${name}${text} ${formatValue(s.value)}`);
    }
    return this;
  }

  /** The exposition text, ending with a newline. */
  toString(): string {
    return `${this.lines.join('\n')}\n`;
  }
}
