import { Command } from 'commander';
import { toComplianceWire, type ComplianceCheckWire } from '../../domain/compliance/index.ts';
import { CatalogueCache } from '../../services/compliance/catalogue-cache.ts';
import { checkAnyAssignment, evaluateLive } from '../../services/compliance/check-compliance.ts';
import { forecastCommand } from './compliance-forecast.ts';
import { commandClock, commandConfig, println, withStore, type CliDeps } from '../context.ts';

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function render(check: ComplianceCheckWire): string {
  const head =
    `${check.crew_unique_id} on ${check.vessel_id} as ${check.position_name ?? '-'}: ${check.overall_status.toUpperCase()} ` +
    `(${check.compliance_source}, as of ${check.as_of})`;
  const counts = check.summary;
  const summary =
    `${counts.total} requirements: ${counts.met} met, ${counts.expiring} expiring, ${counts.expired} expired, ` +
    `${counts.missing} missing, ${counts.pending} pending`;
  const rows = [['REQUIREMENT', 'GROUP', 'STATUS', 'EXPIRES', 'DAYS', 'SATISFIED BY']];
  for (const requirement of check.requirements) {
    const days = requirement.days_until_expiry === null ? '-' : String(requirement.days_until_expiry);
    rows.push([
      requirement.key,
      requirement.group,
      requirement.status,
      requirement.expiry_date ?? '-',
      days,
      requirement.satisfied_by.map((document) => document.document_id).join(', ') || '-',
    ]);
    for (const moduleRow of requirement.modules ?? []) {
      const moduleDays = moduleRow.days_until_expiry === null ? '-' : String(moduleRow.days_until_expiry);
      rows.push([`  ${moduleRow.code}`, '', moduleRow.status ?? '-', '', moduleDays, moduleRow.document_id ?? '-']);
    }
  }
  return `${head}\n${summary}\n\n${table(rows)}`;
}

export function complianceCommand(deps: CliDeps): Command {
  const compliance = new Command('compliance').description(
    'compliance evaluation from the command line (operator view: every vessel, medical included)',
  );

  compliance
    .command('check')
    .description("evaluate one crew member against their role's requirements and store the result")
    .argument('<crew_unique_id>')
    .option('--vessel <id>', 'the vessel, when the crew member is on more than one')
    .option('--json', 'print the compliance check result as partners receive it')
    .action(async (crewId: string, opts: { vessel?: string; json?: boolean }, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      const clock = commandClock(deps, config);
      await withStore(config, async (store) => {
        const outcome = await checkAnyAssignment(
          store.db,
          {
            clock,
            catalogue: new CatalogueCache(clock),
            windowDays: config.complianceWindowDays,
            deadlineMs: config.complianceDeadlineMs,
            fault: config.complianceFault,
            evaluate: (input) => evaluateLive(store.db, input),
          },
          crewId,
          opts.vessel,
        );
        const wire = toComplianceWire(outcome.evaluation, {
          asOf: outcome.asOf,
          crewUniqueId: crewId,
          source: outcome.source,
          medicalVisible: true,
          downloadPath: () => null,
        });
        println(deps.stdout, opts.json ? JSON.stringify(wire, null, 2) : render(wire));
      });
    });

  compliance.addCommand(forecastCommand(deps));
  return compliance;
}
