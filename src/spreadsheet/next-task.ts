/**
 * Resolves in a task of its own, queued after the messages already waiting: long work in a worker
 * awaits it between blocks, so the page's messages (a cancel, a request) are handled meanwhile. A
 * message to itself rather than setTimeout(0), which browsers clamp to 4 ms once nested five deep.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
