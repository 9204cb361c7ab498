import { define, type Struct, type StructError } from 'superstruct';

/*
 * Superstruct types whose failure message is what the setting allows, in an operator's words
 * ("a whole number from 0 to 65535"), so a bad SVC_PORT is reported in one line naming the
 * variable, instead of superstruct's `At path: port -- Expected an integer…`.
 */

export function wholeNumber(min: number, max?: number): Struct<number, null> {
  const allowed = max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  return define<number>(
    'whole number',
    (value) => (typeof value === 'number' && Number.isInteger(value) && value >= min && (max === undefined || value <= max)) || allowed,
  );
}

export function oneOf<const T extends readonly string[]>(values: T): Struct<T[number], null> {
  return define<T[number]>('one of', (v) => values.includes(v as string) || `one of ${values.join(', ')}`);
}

/** Booleans arrive coerced by loadConfig from 1/0, true/false, yes/no, on/off. */
export function onOff(): Struct<boolean, null> {
  return define<boolean>('on or off', (v) => typeof v === 'boolean' || '1 or 0 (also true/false, yes/no, on/off)');
}

export function satisfying(check: (v: string) => boolean, allowed: string): Struct<string, null> {
  return define<string>(allowed, (v) => (typeof v === 'string' && check(v)) || allowed);
}

/** `SVC_PORT must be a whole number from 0 to 65535, not "abc"`: one line, the value cut short. */
export function settingProblem(name: string, err: StructError): string {
  const shown = JSON.stringify(typeof err.value === 'string' ? err.value.slice(0, 80) : err.value);
  return `${name} must be ${err.failures()[0]?.message ?? err.message}, not ${shown}`;
}
