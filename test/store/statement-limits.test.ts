import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isStoreConnectionError } from '../../src/store/store-errors.ts';
import { describeEachStore } from '../support/stores.ts';

describeEachStore('a statement past the store limit on parameters', ({ store }) => {
  it('fails as a bug that names parameters, not as the store going away', async () => {
    const ids = Array.from({ length: 70_000 }, (_, i) => `ves_${i}`);
    const query = store().db.selectFrom('vessels').select('vessel_id').where('vessel_id', 'in', ids);
    await assert.rejects(query.execute(), (err: Error) => {
      assert.match(err.message, /too many SQL variables|bind message has \d+ parameter formats/);
      assert.equal(isStoreConnectionError(err), false);
      return true;
    });
  });
});
