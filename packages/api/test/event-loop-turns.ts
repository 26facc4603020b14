/**
 * What `run` returns, and how many turns of the event loop other work got while it ran: a chain of
 * `setImmediate` callbacks, each counted, which advances only when `run` gives the loop back.
 */
export async function withTurns<T>(run: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const turn = () => {
    if (done) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  const result = await run();
  done = true;
  return { result, turns };
}
