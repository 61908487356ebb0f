"""The daily table: which stored boards make up each day's set.

(day, position) is the primary key and (day, board_id) is unique, so a day holds one board per position
and no board twice; two schedulers racing for one day cannot both write a set (the loser's insert
fails as a whole and it reads the winner's set back)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import Column, Date, ForeignKey, Integer, String, UniqueConstraint
from sqlmodel import Field, SQLModel


class DailyEntry(SQLModel, table=True):
    __tablename__ = "daily"
    __table_args__ = (UniqueConstraint("day", "board_id", name="uq_daily_day_board"),)

    day: date = Field(sa_column=Column(Date, primary_key=True))
    position: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    board_id: str = Field(sa_column=Column(String(16), ForeignKey("puzzle.id"), nullable=False, index=True))
