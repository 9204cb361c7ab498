export { evaluateCompliance, overallStatusOf } from './evaluate.ts';
export { capacityCovers, capacityRoleCovers } from './coc-capacity.ts';
export { complianceChangedPayload, nextExpiryDate, toComplianceWire } from './wire.ts';
export type {
  ComplianceChangedPayload,
  ComplianceCheckWire,
  ModuleRowWire,
  RequirementRowWire,
  SatisfyingDocumentWire,
  WireOptions,
} from './wire.ts';
export type {
  ComplianceEvaluation,
  ComplianceSummary,
  EvaluationDocument,
  EvaluationInput,
  ModuleRow,
  OverallStatus,
  RequirementGroup,
  RequirementRow,
  RequirementStatus,
  SatisfyingDocument,
  VesselFacts,
} from './types.ts';
export { TimeHorizon } from './next-change.ts';
