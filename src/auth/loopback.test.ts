// The loopback redirect receiver and the browser opener's guard (#19 item 2
// and its security list): a real listener on 127.0.0.1; hostile
// authorization URLs are never handed to an opener.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OAuthError } from '../errors.js';
import { browserAuthorizer, refusedToOpen, startLoopbackReceiver } from './loopback.js';

test('the receiver answers only GET on its path, takes one callback, and closes', async () => {
  const receiver = await startLoopbackReceiver('/callback');
  assert.match(receiver.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  const base = new URL(receiver.redirectUri).origin;
  const waiting = receiver.wait(10_000);
  assert.equal((await fetch(`${base}/other?code=x`)).status, 404);
  assert.equal((await fetch(`${receiver.redirectUri}?code=x`, { method: 'POST' })).status, 405);
  const ok = await fetch(`${receiver.redirectUri}?code=abc&state=s1&iss=https%3A%2F%2Fas.test`);
  assert.equal(ok.status, 200);
  assert.match(await ok.text(), /Authorization received/);
  const back = await waiting;
  assert.deepEqual([back.searchParams.get('code'), back.searchParams.get('state'), back.searchParams.get('iss')], ['abc', 's1', 'https://as.test']);
  await assert.rejects(fetch(`${receiver.redirectUri}?code=again`), 'closed after the one callback');
});

test('no callback within the deadline: an OAuthError, and the port is closed', async () => {
  const receiver = await startLoopbackReceiver();
  await assert.rejects(receiver.wait(100), (e: unknown) => e instanceof OAuthError && /no authorization came back/.test(e.message));
  await assert.rejects(fetch(receiver.redirectUri));
});

test('hostile authorization URLs are refused and never reach the opener', async () => {
  const hostile = [
    'javascript:alert(1)',
    'file:///etc/passwd',
    'http://as.example.com/authorize?x=1',
    'https://as.example.com/authorize?x=1;rm -rf ~',
    'https://as.example.com/authorize?x=$(id)',
    'https://as.example.com/authorize?x=`id`',
    'https://as.example.com/authorize?x=1|calc',
    'data:text/html,<script>1</script>',
    'ms-settings:',
  ];
  for (const url of hostile) assert.ok(refusedToOpen(url), `${url} would be opened`);
  assert.equal(refusedToOpen('https://as.example.com/authorize?response_type=code&client_id=a&scope=read%20write'), undefined);
  assert.equal(refusedToOpen('http://127.0.0.1:8080/authorize?a=1'), undefined);

  const opened: string[] = [];
  const receiver = await startLoopbackReceiver();
  const authorize = browserAuthorizer({ receiver, print: () => {}, open: (url) => (opened.push(url), true), timeoutMs: 1_000 });
  for (const url of ['http://as.example.com/authorize', 'https://as.example.com/authorize?x=`id`']) {
    await assert.rejects(authorize({ url: new URL(url), redirectUri: receiver.redirectUri, server: 's' }), (e: unknown) => e instanceof OAuthError && /is not opened/.test(e.message));
  }
  assert.deepEqual(opened, [], 'the opener was never called');
  await receiver.close();
});

test('browserAuthorizer prints the URL, opens it, and resolves with the callback', async () => {
  const receiver = await startLoopbackReceiver();
  const printed: string[] = [];
  const authorize = browserAuthorizer({
    receiver,
    print: (line) => printed.push(line),
    // The "browser": follows the URL back to the receiver, as an AS that approves at once would send it.
    open: (url) => (void fetch(`${receiver.redirectUri}?code=c1&state=${new URL(url).searchParams.get('state')}`), true),
    timeoutMs: 10_000,
  });
  const back = await authorize({ url: new URL('https://as.example.com/authorize?state=st'), redirectUri: receiver.redirectUri, server: 'docs' });
  assert.equal(back.searchParams.get('code'), 'c1');
  assert.equal(back.searchParams.get('state'), 'st');
  assert.match(printed.join('\n'), /To authorize docs, open this URL in a browser:\n {2}https:\/\/as\.example\.com\/authorize\?state=st/);
});
