/** JSON columns are text in both dialects; these keep the parse/format in one place. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export function fromJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

export const bool = (b: boolean | undefined, fallback = false): 0 | 1 => ((b ?? fallback) ? 1 : 0);
