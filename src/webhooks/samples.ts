/**
 * Realistic sample events for `voicectl trigger`: the envelope and `data` fields of spec
 * section 6, with plausible values, so a user's receiver sees what the service sends.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type {
  CallEventData,
  CampaignEventData,
  PingEventData,
  WebhookEvent,
  WebhookEventType,
} from './signature.js';

export interface SampleOptions {
  now?: Date;
  /** Replaces the `data` object entirely (`trigger --data FILE`). */
  data?: Record<string, unknown>;
  /** Ids are random unless given (tests). */
  eventId?: string;
}

function newEventId(): string {
  return `evt_${randomBytes(12).toString('hex')}`;
}

export function sampleEvent(type: WebhookEventType, options: SampleOptions = {}): WebhookEvent {
  const now = options.now ?? new Date();
  const id = options.eventId ?? newEventId();
  const createdAt = now.toISOString();
  const campaignId = randomUUID();
  const agentId = randomUUID();
  switch (type) {
    case 'call.ended':
      return { id, type, created_at: createdAt, data: (options.data as CallEventData | undefined) ?? sampleCall(now, campaignId, agentId, false) };
    case 'call.recording_ready':
      return {
        id,
        type,
        created_at: createdAt,
        data: (options.data as (CallEventData & { has_recording: true }) | undefined) ?? { ...sampleCall(new Date(now.getTime() - 40_000), campaignId, agentId, true), has_recording: true },
      };
    case 'campaign.completed':
      return { id, type, created_at: createdAt, data: (options.data as CampaignEventData | undefined) ?? sampleCampaign(now, campaignId, agentId) };
    case 'ping':
      return { id, type, created_at: createdAt, data: (options.data as PingEventData | undefined) ?? samplePing() };
  }
}

function sampleCall(endedAt: Date, campaignId: string, agentId: string, hasRecording: boolean): CallEventData {
  const duration = 142;
  const start = new Date(endedAt.getTime() - duration * 1000);
  return {
    call_id: `call_${randomBytes(10).toString('hex')}`,
    campaign_id: campaignId,
    agent_id: agentId,
    agent_name: 'Asha - Admissions Follow-up',
    direction: 'outbound',
    phone_number: '+919876543210',
    status: 'completed',
    end_reason: 'completed',
    outcome: 'requirements_gathered',
    summary: 'Priya is interested in the weekend MBA programme and asked for the fee structure by email. She prefers a callback after 6 pm on weekdays.',
    error: null,
    duration_seconds: duration,
    start_time: start.toISOString(),
    end_time: endedAt.toISOString(),
    has_recording: hasRecording,
    contact: {
      name: 'Priya Raman',
      extra: { lead_id: 'LD-20417', city: 'Chennai', source: 'website_form', preferred_language: 'ta-IN' },
    },
  };
}

function sampleCampaign(completedAt: Date, campaignId: string, agentId: string): CampaignEventData {
  return {
    id: campaignId,
    name: 'Admissions follow-up - June intake',
    agent_id: agentId,
    status: 'completed',
    campaign_prompt: 'Mention that the early-bird fee waiver ends on the 30th.',
    kb_item_ids: [],
    created_at: new Date(completedAt.getTime() - 3_600_000).toISOString(),
    contacts_by_status: { pending: 0, initiated: 0, completed: 37, no_answer: 9, failed: 2 },
  };
}

function samplePing(): PingEventData {
  return { message: 'Test event sent by voicectl trigger.' };
}
