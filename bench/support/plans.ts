/** A plan in a few words for the table, and in full for the console. */
export interface PlanSummary {
  essentials: string;
  /** Rows the scans read, on Postgres (actual rows plus rows removed by filters, times loops). */
  rows: string;
  text: string;
}

export function sqliteEssentials(steps: ReadonlyArray<{ detail: string }>): PlanSummary {
  const details = steps.map((s) => s.detail);
  return { essentials: details.join('; '), rows: '', text: details.map((d) => `  ${d}`).join('\n') };
}

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Alias?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PgNode[];
}

/** Postgres's JSON plan (EXPLAIN (ANALYZE, FORMAT JSON)): every scan, its index, and what it read. */
export function postgresEssentials(json: unknown): PlanSummary {
  // Without ANALYZE (a write's plan alone) there are no times.
  const top = (json as Array<{ Plan: PgNode; 'Planning Time'?: number; 'Execution Time'?: number }>)[0]!;
  const scans: string[] = [];
  const lines: string[] = [];
  let read = 0;
  const walk = (node: PgNode, depth: number) => {
    const loops = node['Actual Loops'] ?? 1;
    const rows = (node['Actual Rows'] ?? 0) * loops;
    const removed = ((node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * loops;
    const on = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
    const using = node['Index Name'] ? ` using ${node['Index Name']}` : '';
    lines.push(
      `  ${'  '.repeat(depth)}${node['Node Type']}${using}${on}: ${rows} rows${removed ? `, ${removed} filtered out` : ''}, ${loops} loop(s)`,
    );
    if (node['Relation Name']) {
      scans.push(`${node['Node Type']}${using}${on}`);
      read += rows + removed;
    }
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  };
  walk(top.Plan, 0);
  if (top['Execution Time'] !== undefined)
    lines.push(`  planning ${top['Planning Time']?.toFixed(2)} ms, execution ${top['Execution Time'].toFixed(2)} ms`);
  return { essentials: scans.join('; '), rows: String(read), text: lines.join('\n') };
}
