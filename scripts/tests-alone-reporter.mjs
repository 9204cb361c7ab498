// node:test reporter for scripts/tests-alone.mjs: one JSON line per finished test or suite.
export default async function* reporter(source) {
  for await (const { type, data } of source) {
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    const kind = data.details?.type === 'suite' ? 'suite' : 'test';
    yield `${JSON.stringify({ passed: type === 'test:pass', kind, name: data.name, skip: data.skip ?? data.todo ?? false })}\n`;
  }
}
