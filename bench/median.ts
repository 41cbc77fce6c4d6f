/** The median of `xs` (the upper one of an even count), without reordering `xs`. */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
