import { describe, expect, it } from 'vitest';
import { Observable } from './observable';

/** A counter store, telling when it starts and stops following its source. */
class Counter extends Observable<{ count: number }> {
  following = false;
  subscribes = 0;

  constructor() {
    super({ count: 0 });
  }

  add(): void {
    this.set({ count: this.getSnapshot().count + 1 });
  }

  protected override onSubscribe(): void {
    this.subscribes++;
  }

  protected override onFirstListener(): void {
    this.following = true;
  }

  protected override onLastListener(): void {
    this.following = false;
  }
}

describe('Observable', () => {
  it('replaces its snapshot on each change and tells every listener until it leaves', () => {
    const counter = new Counter();
    const before = counter.getSnapshot();
    const heard: string[] = [];
    const stopA = counter.subscribe(() => heard.push(`a${counter.getSnapshot().count}`));
    const stopB = counter.subscribe(() => heard.push(`b${counter.getSnapshot().count}`));
    counter.add();
    stopA();
    counter.add();
    stopB();
    counter.add();
    expect(heard).toEqual(['a1', 'b1', 'b2']);
    expect(before).toEqual({ count: 0 }); // a snapshot once read never changes under its reader
    expect(counter.getSnapshot()).toEqual({ count: 3 });
  });

  it('follows its source from the first listener to the last, however often one leaves', () => {
    const counter = new Counter();
    const stopA = counter.subscribe(() => undefined);
    const stopB = counter.subscribe(() => undefined);
    expect([counter.following, counter.subscribes]).toEqual([true, 2]);
    stopA();
    stopA();
    expect(counter.following).toBe(true);
    stopB();
    expect(counter.following).toBe(false);
  });
});
