'use strict';
// `require('idemgen/runtime/openai')` is @idemgen/runtime/openai's CommonJS build.
module.exports = require('@idemgen/runtime/openai');
