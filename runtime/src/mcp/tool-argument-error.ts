/**
 * @module
 * The refusal of a tool's argument, whose message is the text of the tool error a call answers.
 */

/** A tool's arguments the request cannot be built from: the detail of its tool error. */
export class ToolArgumentError extends Error {}
