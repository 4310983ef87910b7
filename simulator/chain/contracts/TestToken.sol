// SPDX-License-Identifier: MIT
// The ERC-20 the verifier's tests and the demo deploy on their local chains: OpenZeppelin's ERC20 with 6 decimals
// (as USDC) and an open mint, so that a test can fund any address.
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

contract TestToken is ERC20 {
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
