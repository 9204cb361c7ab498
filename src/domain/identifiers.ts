/** IMO ship number: 7 digits, the last a check digit (docs/compliance-rules.md, "Identifiers"). */
export function isValidImo(imo: string): boolean {
  if (!/^\d{7}$/.test(imo)) return false;
  const d = [...imo].map(Number);
  const sum = d[0]! * 7 + d[1]! * 6 + d[2]! * 5 + d[3]! * 4 + d[4]! * 3 + d[5]! * 2;
  return sum % 10 === d[6];
}

/** Completes 6 digits into a valid IMO number by appending the check digit. */
export function imoWithCheckDigit(six: string): string {
  const d = [...six].map(Number);
  const sum = d[0]! * 7 + d[1]! * 6 + d[2]! * 5 + d[3]! * 4 + d[4]! * 3 + d[5]! * 2;
  return six + String(sum % 10);
}

/** Ship-station MMSI: 9 digits starting with 2-7. */
export function isValidMmsi(mmsi: string): boolean {
  return /^[2-7]\d{8}$/.test(mmsi);
}
