'use strict';
// `require('idemgen/runtime/mcp')` is @idemgen/runtime/mcp's CommonJS build.
module.exports = require('@idemgen/runtime/mcp');
