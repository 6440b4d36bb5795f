// A minimal Express app with express-idempotency (npm), the idempotency middleware of the Ville
// de Montréal, used as its README says: `app.post('*', idempotency())`, and a route that does
// nothing on a hit. tests/probe.rs starts it and probes it with `idemlint probe`.
//
// Usage: node app.js [DELAY_MS]   prints its URL (127.0.0.1, a free port) on its first line.
'use strict';
const express = require('express');
const { idempotency, getSharedIdempotencyService } = require('express-idempotency');

const delay = Number(process.argv[2] || 100);
const app = express();
app.use(express.json());
app.post('*', idempotency());

let next = 1;
app.post('/orders', (req, res) => {
    if (getSharedIdempotencyService().isHit(req)) {
        return;
    }
    // The work takes a while, so concurrent retries overlap with it.
    setTimeout(() => {
        const id = `ord_${next++}`;
        res.status(201).location(`/orders/${id}`).json({ id, ...req.body });
    }, delay);
});

const server = app.listen(0, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${server.address().port}`);
});
