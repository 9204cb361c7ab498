import { readObject } from '../../domain/fields.ts';
import type { ValidationIssue } from '../../domain/validation-issues.ts';
import type { EventType, WebhookEndpointStatus } from '../../domain/vocabulary.ts';
import { registrationFields } from '../../domain/webhook-registration.ts';
import { urlProblem, type DestinationPolicy } from './destination.ts';

/** A valid registration body, in TypeScript terms. */
export interface RegistrationInput {
  url: string;
  subscribedEvents: EventType[];
  /** Absent: the service generates one. */
  secret: string | undefined;
  /** Whether deliveries also carry Ed25519 (`v1a`) signatures. */
  ed25519: boolean;
  /** The lead times of its compliance notices, longest first. */
  noticeLeadDays: number[];
  status: WebhookEndpointStatus;
}

export type RegistrationCheck = { ok: true; value: RegistrationInput } | { ok: false; issues: ValidationIssue[] };

/**
 * Validates a webhook endpoint registration body (docs/decisions.md §7) without touching the network:
 * every problem at once, in the pydantic v2 shape (a rejected secret is never echoed). DNS checks
 * of the host come afterwards, in the registration service.
 */
export function validateRegistration(body: unknown, policy: DestinationPolicy): RegistrationCheck {
  const parsed = readObject(
    body,
    registrationFields((url) => urlProblem(url, policy)),
  );
  if (!parsed.ok) return parsed;
  const { url, subscribed_events: subscribedEvents, secret, ed25519, notice_lead_days: noticeLeadDays, status } = parsed.value;
  return { ok: true, value: { url, subscribedEvents, secret: secret ?? undefined, ed25519, noticeLeadDays, status } };
}
