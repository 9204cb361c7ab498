import { Command, InvalidArgumentError } from 'commander';
import { isIsoDate } from '../../domain/compliance/dates.ts';
import { FORECAST_HORIZON_DAYS } from '../../domain/compliance/status-forecast.ts';
import { utcDate } from '../../domain/clock.ts';
import { CatalogueCache } from '../../services/compliance/catalogue-cache.ts';
import { forecastChanges, type ForecastEntry } from '../../services/compliance/forecast.ts';
import { commandClock, commandConfig, println, withStore, type CliDeps } from '../context.ts';

function date(value: string): string {
  if (!isIsoDate(value)) throw new InvalidArgumentError('expected a calendar date written YYYY-MM-DD');
  return value;
}

function days(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > FORECAST_HORIZON_DAYS) {
    throw new InvalidArgumentError(`expected a whole number of days from 1 to ${FORECAST_HORIZON_DAYS}`);
  }
  return Number(value);
}

function toJson(entry: ForecastEntry) {
  return {
    on: entry.on,
    crew_unique_id: entry.crewUniqueId,
    vessel_id: entry.vesselId,
    position_name: entry.positionName,
    from: entry.from,
    to: entry.to,
    requirement_keys: entry.requirementKeys,
  };
}

function render(entries: readonly ForecastEntry[], on: string, window: number): string {
  if (entries.length === 0) return `no crew change compliance status between ${on} and the ${window} days after it`;
  const rows = [
    ['ON', 'CREW', 'VESSEL', 'POSITION', 'FROM', 'TO', 'BECAUSE OF'],
    ...entries.map((e) => [e.on, e.crewUniqueId, e.vesselId, e.positionName ?? '-', e.from, e.to, e.requirementKeys.join(', ') || '-']),
  ];
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

/** `svc compliance forecast`: whose compliance the calendar changes within a window, sorted by date. */
export function forecastCommand(deps: CliDeps): Command {
  return new Command('forecast')
    .description(
      "list the crew of a partner's fleet whose overall compliance status changes by the calendar within a window, " +
        'sorted by date (documents as held now, no renewals assumed; medical included)',
    )
    .requiredOption(
      '--partner <id>',
      'the partner (holding crew:compliance:read) whose live fleet (crew with compliance consent) to forecast',
    )
    .option('--vessel <id>', "only crew on this vessel of the partner's live fleet")
    .option('--on <date>', 'the first day of the window (YYYY-MM-DD); default today, UTC', date)
    .option('--days <n>', `length of the window in days, 1 to ${FORECAST_HORIZON_DAYS}`, days, 90)
    .option('--json', 'print a JSON array: on, crew_unique_id, vessel_id, position_name, from, to, requirement_keys')
    .action(async (opts: { partner: string; vessel?: string; on?: string; days: number; json?: boolean }, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      const clock = commandClock(deps, config);
      const on = opts.on ?? utcDate(clock());
      await withStore(config, async (store) => {
        const entries = await forecastChanges(
          store.db,
          { catalogue: new CatalogueCache(clock), windowDays: config.complianceWindowDays },
          opts.partner,
          {
            on,
            days: opts.days,
            ...(opts.vessel !== undefined ? { vesselId: opts.vessel } : {}),
          },
        );
        println(deps.stdout, opts.json ? JSON.stringify(entries.map(toJson), null, 2) : render(entries, on, opts.days));
      });
    });
}
