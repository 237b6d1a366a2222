// Types for national-digits.js, which writes src/contacts/national-digits.json.
import type { MetadataJson } from 'libphonenumber-js/core';

export function libraryVersion(): string;
export function nationalDigitBounds(metadataJson: MetadataJson): Record<string, [number, number]>;
export function nationalDigitsFile(): string;
export const NATIONAL_DIGITS_FILE: string;
