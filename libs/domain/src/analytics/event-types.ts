export const EVENT_TYPES = ['inference', 'model_load', 'error'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const INFERENCE_TYPES = ['batch', 'streaming'] as const;
export type InferenceType = (typeof INFERENCE_TYPES)[number];
