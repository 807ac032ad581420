// Shapes the tests check values against, in one place.

/** A UUID as the service writes ids: lower-case hex, hyphenated. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An instant as the service writes it: ISO 8601 in UTC with a `Z` (fractions of a second allowed). */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
