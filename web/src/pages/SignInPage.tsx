import { useState, type FormEvent } from "react";

export function SignInPage({
  refused,
  onSignIn,
}: {
  refused: boolean;
  onSignIn: (token: string) => void;
}) {
  const [value, setValue] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onSignIn(value.trim());
  };
  return (
    <main className="sign-in">
      <h1>Sign in to shipwise</h1>
      {refused && (
        <p role="alert" className="error">
          Your token was refused
        </p>
      )}
      <form onSubmit={submit}>
        <label htmlFor="token">API token</label>
        <input
          id="token"
          type="text"
          spellCheck={false}
          autoComplete="off"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="sw_…"
        />
        <button type="submit" disabled={!value.trim()}>
          Sign in
        </button>
      </form>
      <p className="hint">
        <code>shipwise serve --demo</code> prints a link that signs you in; <code>shipwise
        workspace create NAME</code> prints an owner token.
      </p>
    </main>
  );
}
