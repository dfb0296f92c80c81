/**
 * PII `masked` (API.md §5.4, §12): how a text is shown masked, in every output: an address keeps
 * its first character and its domain (`j***@example.com`), anything else its last two characters
 * when it has more than four (`*****df`), at least three stars. Shared by the answers' outputs
 * (features/submissions/pii.ts) and a masked file's download name (features/files/delivery.ts).
 */
export function maskText(text: string, { address = true }: { address?: boolean } = {}): string {
  const at = text.lastIndexOf('@');
  if (address && at > 0) return `${text.charAt(0)}***${text.slice(at)}`;
  const characters = [...text];
  const keep = characters.length > 4 ? 2 : 0;
  return (
    '*'.repeat(Math.max(characters.length - keep, 3)) + characters.slice(characters.length - keep).join('')
  );
}
