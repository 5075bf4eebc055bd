"""Write paths of the fees app: schedules, assessment at "no more bets", waivers, the drop."""
