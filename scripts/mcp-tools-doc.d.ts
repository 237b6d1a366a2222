import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export const PAGE: string;
export const START: string;
export const END: string;
export function listTools(env?: Record<string, string | undefined>): Promise<Tool[]>;
export function renderTools(tools: Tool[]): string;
export function withTools(page: string, list: string): string;
