"""The room's table board: a read-only page for a TV, shown only for the configured token."""

from django.urls import path

from .views import board

app_name = "board"

urlpatterns = [
    path("<str:token>/", board.board, name="board"),
    path("<str:token>/panel/", board.board_panel, name="panel"),
]
