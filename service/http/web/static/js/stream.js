// Following a game live: streamGame, the NDJSON stream of
// /v1/games/{id}/stream (its operationId), resumed after a break from the
// last message seen (last_event_id), a refusal (429, 503) waited out for
// its Retry-After.

import { ApiError } from "./api.js";
import { sleep } from "./dom.js";

export function streamGame(gameId, token, { onMessage, onState, onError }) {
  let last = null;
  let stopped = false;
  let controller = null;
  (async () => {
    let backoff = 500;
    while (!stopped) {
      controller = new AbortController();
      const headers = { Accept: "application/x-ndjson" };
      if (token) headers.Authorization = `Bearer ${token}`;
      const resume = last === null ? "" : `&last_event_id=${last}`;
      try {
        const response = await fetch(`/v1/games/${gameId}/stream?data=view${resume}`, {
          headers,
          signal: controller.signal,
        });
        if (response.status === 204) return onState("over");
        if (!response.ok) {
          const problem = await response.json().catch(() => ({}));
          const error = new ApiError(response.status, problem, response.headers);
          if ([400, 401, 404].includes(response.status)) return onError(error);
          // refused (too many streams, or a server too busy to take one): back when it says
          if ([429, 503].includes(response.status)) backoff = 1000 * Number(response.headers.get("Retry-After") || 2);
          throw error;
        }
        onState("live");
        backoff = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf("\n")) >= 0) {
            const line = buffer.slice(0, end).trim();
            buffer = buffer.slice(end + 1);
            if (!line) continue; // a heartbeat
            const message = JSON.parse(line);
            last = message.id;
            onMessage(message);
            if (message.event === "finished") stopped = true;
          }
        }
      } catch (error) {
        if (stopped) return;
      }
      if (stopped) return;
      onState("reconnecting");
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 10000);
    }
  })();
  return {
    stop() {
      stopped = true;
      if (controller) controller.abort();
    },
  };
}
