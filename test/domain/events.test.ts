import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { completeClassification } from '../../src/domain/classification.ts';
import type { CrewDocument } from '../../src/domain/document.ts';
import { documentEventData, replacedEdition } from '../../src/domain/events.ts';
import { PROCESSING_STATES } from '../../src/domain/vocabulary.ts';

const TODAY = '2026-03-01';

function document(over: Partial<CrewDocument>): CrewDocument {
  return {
    documentId: 'doc_1',
    crewUniqueId: 'crew_1',
    type: 'certificate',
    category: 'stcw',
    title: 'Basic safety',
    issuer: null,
    verificationStatus: 'verified',
    reviewStatus: 'approved',
    issueDate: '2024-01-01',
    expiryDate: '2029-01-01',
    noExpiry: false,
    documentNumber: null,
    processingState: 'processed',
    isCurrent: true,
    isLive: true,
    supersededBy: null,
    documentClass: 'training',
    classification: completeClassification({ document_class: 'training', category_code: 'stcw' }, 'Basic safety'),
    fileId: null,
    fileName: null,
    contentType: null,
    processedAt: '2024-01-02T00:00:00.000Z',
    updatedAt: '2024-01-02T00:00:00.000Z',
    ...over,
  };
}

describe("a document that left a partner's list", () => {
  it('replaced by a newer edition: replaced, and its final state reads superseded', () => {
    const doc = document({ isCurrent: false, supersededBy: 'doc_2' });
    assert.equal(replacedEdition(doc), true);
    assert.equal(documentEventData(doc, TODAY).status, 'superseded');
    assert.equal(documentEventData(doc, TODAY).superseded_by, 'doc_2');
  });

  it('withdrawn, rejected, back in processing or not replaced: not replaced (it leaves silently), whatever else holds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROCESSING_STATES),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.constant('doc_2')),
        (processingState, isLive, isCurrent, supersededBy) => {
          const replaced = processingState === 'processed' && isLive && !isCurrent && supersededBy !== null;
          assert.equal(replacedEdition(document({ processingState, isLive, isCurrent, supersededBy })), replaced);
        },
      ),
    );
  });
});
