// IP address parsing shared by the webhook address check and the rate limits' client keys.

/** The 4 bytes of a dotted IPv4 address; undefined when it is not one. */
export function parseV4(ip: string): number[] | undefined {
  const parts = ip.split('.');
  // No leading zeros: `0177.0.0.1` is no address of ours, and inet_aton() reads it as octal (127.0.0.1).
  if (parts.length !== 4 || !parts.every((p) => /^(?:0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

/** 16 bytes of an IPv6 address (with `::` and a dotted IPv4 tail); undefined when it is not one. */
export function parseV6(ip: string): number[] | undefined {
  // A zone id (`fe80::1%eth0`) names an interface, not an address. (Cut by indexOf: /%.*$/ took quadratic time.)
  const zone = ip.indexOf('%');
  const address = zone === -1 ? ip : ip.slice(0, zone);
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const groups = (text: string): number[] | undefined => {
    if (text === '') return [];
    const words: number[] = [];
    const parts = text.split(':');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = parseV4(part);
        if (!v4) return undefined;
        words.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) words.push(parseInt(part, 16));
      else return undefined;
    }
    return words;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const words = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}
