// A refusal or a failure an operator can act on (exit 1 with the message, no stack trace).
export class MaintenanceError extends Error {}

/** A flag value that cannot mean anything (exit 2, like an unknown flag). */
export class InvalidArgumentError extends Error {}
