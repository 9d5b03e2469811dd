/** Placeholder text for the OP-4 example: the owned table's own columns are not known here. */
export const OWNED_EXAMPLE_COLUMNS = '<your columns>';
export const OWNED_EXAMPLE_VALUES = '<your values>';
