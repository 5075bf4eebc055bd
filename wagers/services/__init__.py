"""Write paths for money: the ledger, chips at the table, wagers, the bank, settlement."""
