/** The time source every service takes, so tests can fix it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
