'use strict';
// `require('idemgen/runtime/openai-agents')` is @idemgen/runtime/openai-agents's CommonJS build.
module.exports = require('@idemgen/runtime/openai-agents');
