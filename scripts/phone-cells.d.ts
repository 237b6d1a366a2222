// Types for phone-cells.js, which runs as plain JavaScript on dist/ too.
import type { PhoneNumber } from 'libphonenumber-js/max';

export interface BaseNumber { e164: string; country: string | undefined; type: string }
export interface Cell { cell: string; defaultCountry: string | undefined; style: string; mutation: string | undefined; base: string }
export type Difference = 'words' | 'extension' | 'two numbers' | 'foreign style';
export interface Summary {
  cells: number;
  libraryValid: number;
  same: number;
  documented: Partial<Record<Difference, number>>;
  undocumented: number;
  examples: Array<Cell & { library: string; voicectl: string }>;
  styles: Set<string>;
  mutated: number;
}

export function rng(seed: number): () => number;
export function baseNumbers(seed?: number): BaseNumber[];
export const STYLES: Record<string, unknown>;
export const MUTATIONS: Record<string, unknown>;
export function generateCells(options: { seed?: number; count: number; bases?: BaseNumber[] }): Generator<Cell>;
export function documentedDifference(cell: string, defaultCountry: string | undefined, library?: PhoneNumber | undefined): Difference | undefined;
export function libraryVerdict(cell: string, defaultCountry: string | undefined): { phone: PhoneNumber | undefined; e164: string | undefined };
export function mixedRows(options: { seed?: number; count: number; bases?: BaseNumber[] }): Generator<{ cell: string; countryCell: string; country: string | undefined }>;
export function foreignStyle(cell: string, defaultCountry: string | undefined): 'North American' | 'IN' | 'GB' | 'AE' | undefined;
export function compareCell(cell: string, defaultCountry: string | undefined, result: string, options?: { rowCountry?: boolean }):
  | { same: true; valid: boolean }
  | { same: false; valid: boolean; documented: Difference }
  | { same: false; valid: boolean; undocumented: true; library: string; voicectl: string };
export function runDifferential(options: {
  seed?: number;
  count: number;
  bases?: BaseNumber[];
  checkFor: (defaultCountry: string | undefined) => (cell: string) => string;
}): Summary;
