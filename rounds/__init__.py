"""The round lifecycle: a hand from its start to its settlement or void, and the simulator.

It orchestrates the layers below it, one transaction per step: the floor (the button, the
table's lock), money (wagers, the bank, settlement) and fees (the schedule frozen at the
start, assessed at "no more bets", returned with a void).
"""
