import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { completeClassification } from '../../src/domain/classification.ts';
import type { CrewDocument } from '../../src/domain/document.ts';
import { departedDocumentEvent, documentEventData } from '../../src/domain/events.ts';
import { PROCESSING_STATES } from '../../src/domain/vocabulary.ts';

const TODAY = '2026-03-01';

function document(over: Partial<CrewDocument>): CrewDocument {
  return {
    documentId: 'doc_1', crewUniqueId: 'crew_1', type: 'certificate', category: 'stcw', title: 'Basic safety', issuer: null,
    verificationStatus: 'verified', reviewStatus: 'approved', issueDate: '2024-01-01', expiryDate: '2029-01-01', noExpiry: false,
    documentNumber: null, processingState: 'processed', isCurrent: true, isLive: true, supersededBy: null, documentClass: 'training',
    classification: completeClassification({ document_class: 'training', category_code: 'stcw' }, 'Basic safety'),
    fileId: null, fileName: null, contentType: null, processedAt: '2024-01-02T00:00:00.000Z', updatedAt: '2024-01-02T00:00:00.000Z',
    ...over,
  };
}

describe('a document that left a partner\'s list', () => {
  it('replaced by a newer edition: crew.document.updated with its final state (superseded)', () => {
    const doc = document({ isCurrent: false, supersededBy: 'doc_2' });
    const event = departedDocumentEvent(doc, TODAY);
    assert.deepEqual(event, { type: 'crew.document.updated', crewUniqueId: 'crew_1', data: documentEventData(doc, TODAY) });
    assert.equal(event?.data.status, 'superseded');
    assert.equal(event?.data.superseded_by, 'doc_2');
  });

  it('withdrawn, rejected, back in processing or not replaced: no event, whatever else holds', () => {
    fc.assert(fc.property(
      fc.constantFrom(...PROCESSING_STATES), fc.boolean(), fc.boolean(), fc.option(fc.constant('doc_2')),
      (processingState, isLive, isCurrent, supersededBy) => {
        const event = departedDocumentEvent(document({ processingState, isLive, isCurrent, supersededBy }), TODAY);
        const replaced = processingState === 'processed' && isLive && !isCurrent && supersededBy !== null;
        assert.equal(event !== null, replaced);
      },
    ));
  });
});
