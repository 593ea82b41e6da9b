// The rules of a challenge game (the same as EduCATChallenge in Swift): hits, lives, a countdown
// per question, a wrong answer or a timeout costs a life, the game ends at no lives, and the
// record is beaten only by strictly more hits. Pure functions over plain objects.

export function newChallenge({ seconds, lives }, record) {
  return { seconds, livesAtStart: lives, phase: "waiting", hits: 0, errors: 0, lives, previousRecord: record };
}

export const recordOf = (game) => Math.max(game.previousRecord, game.hits);
export const beats = (hits, record) => hits > record;
export const isNewRecord = (game) => beats(game.hits, game.previousRecord);

/** "Pregunta": a new game from zero (keeping the best so far as the record to beat). */
export function start(game) {
  if (game.phase === "asking") return game;
  return { ...newChallenge({ seconds: game.seconds, lives: game.livesAtStart }, recordOf(game)), phase: "asking" };
}

/** outcome: "hit", "miss" or "timeout". */
export function answer(game, outcome) {
  if (game.phase !== "asking") return game;
  if (outcome === "hit") return { ...game, hits: game.hits + 1 };
  const lives = game.lives - 1;
  return { ...game, errors: game.errors + 1, lives, phase: lives === 0 ? "over" : "asking" };
}

/** "* * *" for three lives; nothing at all for none. */
export const livesText = (lives) => Array(Math.max(0, lives)).fill("*").join(" ");
