import type { PathItems } from '../types.ts';
import { adminKeyPaths, adminWebhookPaths } from './admin.ts';
import { compliancePaths } from './compliance.ts';
import { crewPaths } from './crew.ts';
import { documentPaths } from './documents.ts';
import { fleetPaths } from './fleet.ts';
import { internalPaths } from './internal.ts';
import { partnerPaths } from './partners.ts';

/**
 * The paths of every route module (src/http/routes/index.ts), merged into the document. A test
 * checks that each route the app serves is described here and nothing else is. Two groups may
 * describe different methods of one path; they are merged per path.
 */
export const pathGroups: readonly PathItems[] = [
  internalPaths,
  partnerPaths,
  fleetPaths,
  crewPaths,
  documentPaths,
  compliancePaths,
  adminKeyPaths,
  adminWebhookPaths,
];
