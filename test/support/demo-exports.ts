/** The variables of the `  export A=1 B=2` lines `npm run demo` prints for the reader. */
export function demoExports(out: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [, line] of out.matchAll(/^ {2}export (.+)$/gm)) {
    for (const pair of line!.trim().split(/\s+/)) {
      const at = pair.indexOf('=');
      vars[pair.slice(0, at)] = pair.slice(at + 1);
    }
  }
  return vars;
}
