import { Command } from 'commander';
import { toComplianceWire, type ComplianceCheckWire } from '../../domain/compliance/index.ts';
import { CatalogueCache } from '../../services/compliance/catalogue-cache.ts';
import { checkAnyAssignment } from '../../services/compliance/check-compliance.ts';
import { forecastCommand } from './compliance-forecast.ts';
import { commandClock, commandConfig, println, withStore, type CliDeps } from '../context.ts';

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

function render(w: ComplianceCheckWire): string {
  const head = `${w.crew_unique_id} on ${w.vessel_id} as ${w.position_name ?? '-'}: ${w.overall_status.toUpperCase()} ` +
    `(${w.compliance_source}, as of ${w.as_of})`;
  const s = w.summary;
  const summary = `${s.total} requirements: ${s.met} met, ${s.expiring} expiring, ${s.expired} expired, ${s.missing} missing, ${s.pending} pending`;
  const rows = [['REQUIREMENT', 'GROUP', 'STATUS', 'EXPIRES', 'DAYS', 'SATISFIED BY']];
  for (const r of w.requirements) {
    rows.push([r.key, r.group, r.status, r.expiry_date ?? '-', r.days_until_expiry === null ? '-' : String(r.days_until_expiry),
      r.satisfied_by.map((d) => d.document_id).join(', ') || '-']);
    for (const m of r.modules ?? []) {
      rows.push([`  ${m.code}`, '', m.status ?? '-', '', m.days_until_expiry === null ? '-' : String(m.days_until_expiry), m.document_id ?? '-']);
    }
  }
  return `${head}\n${summary}\n\n${table(rows)}`;
}

export function complianceCommand(deps: CliDeps): Command {
  const compliance = new Command('compliance').description('compliance evaluation from the command line (operator view: every vessel, medical included)');

  compliance.command('check')
    .description("evaluate one crew member against their role's requirements and store the result")
    .argument('<crew_unique_id>')
    .option('--vessel <id>', 'the vessel, when the crew member is on more than one')
    .option('--json', 'print the compliance check result as partners receive it')
    .action(async (crewId: string, opts: { vessel?: string; json?: boolean }, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      const clock = commandClock(deps, config);
      await withStore(config, async (store) => {
        const outcome = await checkAnyAssignment(store.db, {
          clock, catalogue: new CatalogueCache(clock), windowDays: config.complianceWindowDays,
          deadlineMs: config.complianceDeadlineMs, fault: config.complianceFault,
        }, crewId, opts.vessel);
        const wire = toComplianceWire(outcome.evaluation, {
          asOf: outcome.asOf, crewUniqueId: crewId, source: outcome.source, medicalVisible: true, downloadPath: () => null,
        });
        println(deps.stdout, opts.json ? JSON.stringify(wire, null, 2) : render(wire));
      });
    });

  compliance.addCommand(forecastCommand(deps));
  return compliance;
}
