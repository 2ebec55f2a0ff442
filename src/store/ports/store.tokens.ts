/** DI token of the open DatabaseHandle. */
export const DATABASE = Symbol('DATABASE');
