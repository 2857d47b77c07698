// A table's match as its page follows it: the log of actions ({seat, entry}), each in the slot
// of its number, and every seat's totals after the actions that changed them. The seats' dice,
// holds, rolls in the turn, boxes and transcripts are read from the log, so an action is
// applied by writing its slot whenever it comes.
//
// At a duplicate table the log holds what every viewer sees (the complete rounds, a prefix:
// the events' own), and this device's seats' actions of the round being played are kept apart
// (`own`, from the table's answers, with their numbers and those seats' totals after them):
// they show on top of the log until the round closes and its event brings them into it.

import { NO_HOLD } from "./board.js";

export class MatchLog {
  constructor() {
    this.actions = []; // by action number
    this.known = 0; // actions held without a gap
    this.sheetsAt = new Map(); // action number → every seat's totals after it
    this.own = new Map(); // action number → {seat, entry} of this device's, past the log
    this.ownSheets = {}; // seat → its totals after its own actions past the log
  }

  /** Load the match as the API shows it whole: its `order`, the seats' transcripts and
   * totals; `shared` of its actions (all `next_action` of them but at a duplicate table). */
  load(match, shared = match.next_action) {
    if (match.order) {
      this.actions = [];
      const counts = match.seats.map(() => 0);
      match.order.slice(0, shared).forEach((seat, number) => {
        this.actions[number] = { seat, entry: match.seats[seat].transcript[counts[seat]] };
        counts[seat] += 1;
      });
    }
    this.known = shared;
    this.sheetsAt = new Map([[this.known, match.seats.map((seat) => seat.totals)]]);
    this.own = new Map();
  }

  /** A duplicate table's answer: this device's actions past the shared log (`yours`, each
   * {number, seat, entry}) and its seats' totals now (`totals`, by seat). Those held already
   * stay (an answer may come before the event that brings them into the log). */
  setOwn(yours, totals) {
    for (const { number, seat, entry } of yours) this.own.set(number, { seat, entry });
    for (const seat of new Set(yours.map((action) => action.seat))) {
      this.ownSheets[seat] = totals[seat];
    }
    this.dropOwn();
  }

  /** Forget the own actions the log now holds. */
  dropOwn() {
    for (const number of this.own.keys()) if (number < this.known) this.own.delete(number);
  }

  /** The own actions past the log, in play order. */
  ownActions() {
    return [...this.own.entries()].sort(([a], [b]) => a - b).map(([, action]) => action);
  }

  /** An `actions` event's actions (from number `from`) and the totals of the seats it
   * changed (`sheets`, by seat) after action `to`. False when a gap comes before it. */
  apply({ from, to, actions, sheets }) {
    if (from > this.known) return false;
    actions.forEach((action, index) => {
      this.actions[from + index] = action;
    });
    while (this.actions[this.known]) this.known += 1;
    if (sheets && Object.keys(sheets).length) {
      const before = this.sheetsAt.get(this.latestSheets(to)) ?? [];
      this.sheetsAt.set(to, before.map((totals, seat) => sheets[seat] ?? totals));
    }
    this.dropOwn();
    return true;
  }

  /** The action number `number` ({seat, entry}), or undefined. */
  at(number) {
    return this.actions[number];
  }

  /** The number of the latest totals held at or before action `upto`. */
  latestSheets(upto) {
    let best = -1;
    for (const number of this.sheetsAt.keys()) if (number <= upto && number > best) best = number;
    return best;
  }

  /** Every seat's totals after the first `upto` actions (as the latest event before told),
   * this device's own past the log on top once `upto` reaches its end. */
  sheetsFor(upto) {
    const sheets = [...(this.sheetsAt.get(this.latestSheets(upto)) ?? [])];
    if (upto < this.known) return sheets;
    for (const { seat, entry } of this.ownActions()) {
      if (entry.action === "score" && this.ownSheets[seat]) sheets[seat] = this.ownSheets[seat];
    }
    return sheets;
  }

  /** Each of the `count` seats' game after the first `upto` actions, this device's own past
   * the log on top once `upto` reaches its end: `boxes`, `dice`, the `hold` of its last roll,
   * `rolls` in the turn, `transcript`. */
  seatsAfter(count, upto = this.known) {
    const seats = Array.from({ length: count }, () => ({ boxes: {}, dice: null, hold: NO_HOLD,
      rolls: 0, transcript: [] }));
    const actions = this.actions.slice(0, upto);
    if (upto >= this.known) actions.push(...this.ownActions());
    for (const action of actions) {
      const seat = action && seats[action.seat];
      if (!seat) continue;
      const { entry } = action;
      seat.transcript.push(entry);
      if (entry.action === "roll") {
        Object.assign(seat, { dice: entry.dice, hold: entry.hold, rolls: seat.rolls + 1 });
      } else if (entry.action === "score") {
        seat.boxes[entry.category] = entry.points;
        Object.assign(seat, { dice: null, hold: NO_HOLD, rolls: 0 });
      }
    }
    return seats;
  }
}
