/** IMO ship number: 7 digits, the last a check digit (docs/compliance-rules.md, "Identifiers"). */
export function isValidImo(imo: string): boolean {
  if (!/^\d{7}$/.test(imo)) return false;
  const digits = [...imo].map(Number);
  const sum = digits[0]! * 7 + digits[1]! * 6 + digits[2]! * 5 + digits[3]! * 4 + digits[4]! * 3 + digits[5]! * 2;
  return sum % 10 === digits[6];
}

/** Completes 6 digits into a valid IMO number by appending the check digit. */
export function imoWithCheckDigit(six: string): string {
  const digits = [...six].map(Number);
  const sum = digits[0]! * 7 + digits[1]! * 6 + digits[2]! * 5 + digits[3]! * 4 + digits[4]! * 3 + digits[5]! * 2;
  return six + String(sum % 10);
}

/** Ship-station MMSI: 9 digits starting with 2-7. */
export function isValidMmsi(mmsi: string): boolean {
  return /^[2-7]\d{8}$/.test(mmsi);
}
