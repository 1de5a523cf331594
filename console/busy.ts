/**
 * The handler of a control that sends: while the call it starts is in flight, another click (or
 * Enter) sends nothing, and the control says it is busy. It keeps the focus meanwhile (it is marked
 * `aria-disabled`, not disabled), so a keyboard user is not thrown to the top of the page.
 */
export function oneAtATime<A extends unknown[]>(
  control: HTMLElement,
  action: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  let running = false;
  return async (...args) => {
    if (running) return;
    running = true;
    control.setAttribute("aria-disabled", "true");
    control.setAttribute("aria-busy", "true");
    try {
      await action(...args);
    } finally {
      running = false;
      control.removeAttribute("aria-disabled");
      control.removeAttribute("aria-busy");
    }
  };
}
